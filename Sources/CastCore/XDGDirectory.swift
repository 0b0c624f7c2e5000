// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

#if canImport(Glibc)
import Glibc
#endif

/// CastDeck's directories under the XDG base directories: `$XDG_<KIND>_HOME/castdeck`, or
/// the specification's fallback under `$HOME` when the variable is unset or not absolute.
public enum XDGDirectory: Sendable {
    /// Settings the user made (devices added by address): `~/.config`.
    case config
    /// State worth keeping between runs (sessions to resume): `~/.local/state`.
    case state
    /// What can be fetched again (artwork): `~/.cache`.
    case cache

    var variable: String {
        switch self {
        case .config: "XDG_CONFIG_HOME"
        case .state: "XDG_STATE_HOME"
        case .cache: "XDG_CACHE_HOME"
        }
    }

    var fallback: String {
        switch self {
        case .config: ".config"
        case .state: ".local/state"
        case .cache: ".cache"
        }
    }

    /// `<base>/castdeck`, or nil when neither the variable nor a home directory is known.
    /// - Parameter environment: the process environment by default; tests pass their own.
    public func path(environment: [String: String]? = nil) -> String? {
        let value = { (name: String) in environmentValue(name, in: environment) }
        if let base = value(variable), base.hasPrefix("/") { return base + "/castdeck" }
        var home = value("HOME") ?? ""
        if home.isEmpty, environment == nil, let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir {
            home = String(cString: dir)
        }
        guard !home.isEmpty else { return nil }
        return home + "/" + fallback + "/castdeck"
    }
}

/// The variable `name` from `environment`, or from the process environment (one getenv, not a
/// copy of all of it) when `environment` is nil. Tests pass their own dictionary.
public func environmentValue(_ name: String, in environment: [String: String]?) -> String? {
    if let environment { return environment[name] }
    return getenv(name).map { String(cString: $0) }
}
