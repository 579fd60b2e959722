"""The terminal client's UI: model, render, keys, controller, network, app."""

from client.ui.app import ClientApp
from client.ui.controller import Controller
from client.ui.intents import Connect, GameIntent, Intent, LeaveTable, Quit, TableRequest
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network, Plan
from client.ui.render import render

__all__ = [
    "ClientApp",
    "Connect",
    "Controller",
    "GameIntent",
    "Intent",
    "LeaveTable",
    "Mode",
    "Model",
    "Network",
    "Plan",
    "Quit",
    "Screen",
    "TableRequest",
    "render",
]
