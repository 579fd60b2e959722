"""The client side of uno-lan: the network session, the terminal UI and the bots.

``client.session`` is the Trio network session every client uses; ``client.bots`` holds
the strategies, the bot API and ``uno-bot``; ``client.ui`` the prompt-toolkit program.
The client never imports the server: it learns legal moves from the views it is sent.
"""

__all__: list[str] = []
