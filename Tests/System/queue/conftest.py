# SPDX-License-Identifier: GPL-3.0-or-later
"""The queue suite uses the client suite's fixtures (a `castctl receiver` per test,
castctl, pychromecast 14.0.10 as the second sender)."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("client_fixtures", Path(__file__).resolve().parent.parent / "client" / "conftest.py")
_client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_client)

receiver = _client.receiver
pycast = _client.pycast
