"""Small helpers to find and drive widgets of a running GTK 4 app through AT-SPI."""
import json
import subprocess
import time

import pyatspi

TIMEOUT = 20.0


class Failure(AssertionError):
    pass


def app_named(name, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            a = desktop.getChildAtIndex(i)
            if a is not None and a.name == name:
                return a
        time.sleep(0.2)
    raise Failure(f"no application named {name!r} on the accessibility bus")


def states(node):
    return {pyatspi.stateToString(s) for s in node.getState().getStates()}


def walk(node, depth=0, limit=60):
    if node is None or depth > limit:
        return
    yield node
    try:
        count = node.childCount
    except Exception:  # the widget went away while we looked (a list re-rendered)
        return
    for i in range(count):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        yield from walk(child, depth + 1, limit)


def find_all(root, name=None, role=None, visible_only=True):
    out = []
    for n in walk(root):
        try:
            if name is not None and n.name != name:
                continue
            if role is not None and n.getRoleName() != role:
                continue
            if visible_only and "visible" not in states(n):
                continue
            out.append(n)
        except Exception:
            continue
    return out


def find(root, name, role=None, timeout=TIMEOUT, visible_only=True):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = find_all(root, name, role, visible_only)
        if found:
            return found[0]
        time.sleep(0.2)
    dump = sorted({f"{n.getRoleName()}:{n.name}" for n in walk(root) if n.name})
    raise Failure(f"no widget named {name!r} (role {role}); visible names: {dump[:80]}")


def click(node):
    """Runs the node's first action (click/activate/press) the way a user would."""
    try:
        action = node.queryAction()
        n = action.nActions
    except NotImplementedError:
        n = 0
    if n == 0:
        # Composite widgets (GtkMenuButton) carry the action on an inner button.
        for inner in walk(node):
            if inner is node:
                continue
            try:
                if inner.queryAction().nActions > 0:
                    return click(inner)
            except NotImplementedError:
                continue
        raise Failure(f"{node.name!r} has no action")
    names = [action.getName(i) for i in range(action.nActions)]
    for preferred in ("click", "activate", "press", "toggle"):
        if preferred in names:
            action.doAction(names.index(preferred))
            return
    action.doAction(0)


def wait_for(what, predicate, timeout=TIMEOUT, interval=0.2):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Failure:
            raise
        except Exception as e:  # widgets may be rebuilt while we look
            last = e
        time.sleep(interval)
    raise Failure(f"timed out waiting for {what} (last: {last!r})")


def castctl(castctl_bin, device, *args):
    out = subprocess.run([castctl_bin, *args, "--device", device, "--timeout", "10"],
                         capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise Failure(f"castctl {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def receiver_media(castctl_bin, device):
    status = json.loads(castctl(castctl_bin, device, "status", "--json"))
    return status.get("media") or {}


def run_cases(cases):
    """Runs (name, fn) pairs, printing ok/FAIL for each; returns the exit status (1 if any failed)."""
    failed = 0
    for name, fn in cases:
        try:
            fn()
            print(f"ok   {name}", flush=True)
        except Exception as e:
            failed += 1
            print(f"FAIL {name}: {e}", flush=True)
    return 1 if failed else 0
