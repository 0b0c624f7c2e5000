// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// castdeck: the GTK window, and the composition root. Wiring and argument parsing only:
//
//   main.swift      options, logging, resources, gettext, the demo receiver
//   Backends.swift  the services (CastClient, DeviceDirectory + Avahi, ImageCache, MPRIS)
//                   as `Services`, which CastDeckApplication (CastDeckUI) asks for
//
//   castdeck ──builds──▶ CastDeckApplication (window) ──makeModel──▶ AppModel
//            └─builds──▶ MPRISService, on GApplication's bus connection once the window is up
//
// Arrows point down the layers only: the window never builds a service or MPRIS itself.
import AppModel
import CastClient
import CastCore
import CastDeckResources
import CastDeckUI
import CastReceiver
import GLibInterop
import Glibc
import Logging

func usage() -> Never {
    print(
        """
        Usage: castdeck [--demo] [--device HOST[:PORT]] [FILE...] [--verbose]
          --demo                 start a simulated Cast receiver in this process and offer sample media
          --device HOST[:PORT]   add a device by address, connect and join the session running there
          -v, --verbose          log to standard error (also CASTDECK_DEBUG=1)
          --version              print the version and exit
          FILE...                cast a file from this computer (a path or file:// URI; several
                                 files, a folder or a playlist make a queue); without
                                 --device, the window asks which device
        """)
    exit(0)
}

/// Why a FILE argument cannot be cast, before any window opens (nil when it can be read).
func unreadableFile(_ arg: String) -> String? {
    var path = arg
    if arg.hasPrefix("file://") {
        guard let decoded = arg.dropFirst("file://".count).removingPercentEncoding, decoded.hasPrefix("/") else {
            return "\(arg) is not a local file URI"
        }
        path = decoded
    } else if arg.contains("://") {
        return "\(arg) is not a file on this computer (use castctl cast URL for links)"
    }
    var info = stat()
    guard stat(path, &info) == 0 else { return "cannot read \(path): \(String(cString: strerror(errno)))" }
    // A folder is cast as a queue of its media files (AppModel.castQueue).
    guard (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFDIR else { return "\(path) is not a regular file or folder" }
    guard access(path, R_OK) == 0 else { return "cannot read \(path): permission denied" }
    return nil
}

/// Why `--device` cannot name a device (nil when it parses as HOST[:PORT]).
func badAddress(_ text: String) -> String? {
    do {
        _ = try DeviceAddress(parsing: text)
        return nil
    } catch { return "--device: \(error)" }
}

var options = LaunchOptions()
var verbose = getenv("CASTDECK_DEBUG").map { String(cString: $0) != "0" } ?? false
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--demo": options.demo = true
    case "--device":
        guard let v = args.popFirst() else {
            printError("castdeck: --device needs HOST[:PORT]")
            exit(2)
        }
        options.device = v
    case "-v", "--verbose": verbose = true
    case "-h", "--help": usage()
    case "--version":
        print("castdeck \(CastDeckVersion.string)")
        exit(0)
    case "--":
        options.files += args
        args.removeAll()
    default:
        if arg.hasPrefix("--device=") {
            options.device = String(arg.dropFirst("--device=".count))
        } else if arg.hasPrefix("-") {
            printError("castdeck: unknown option \(arg) (see --help)")
            exit(2)
        } else if let problem = unreadableFile(arg) {
            printError("castdeck: \(problem)")
            exit(1)
        } else {
            options.files.append(arg)
        }
    }
}
if let device = options.device, let problem = badAddress(device) {
    printError("castdeck: \(problem)")
    exit(2)
}

// The libraries log through swift-log. Without a bootstrap swift-log would print their info
// messages on standard output; CastDeck logs to standard error instead: warnings and errors
// always, everything from debug up with --verbose / CASTDECK_DEBUG=1.
LoggingSystem.bootstrap { [verbose] label in
    StandardErrorLogHandler(label: label, logLevel: verbose ? .debug : .warning)
}
Logger(label: "castdeck").debug("verbose logging on")

castdeck_register_resource()
let paths = DataPaths.locate()
paths.exportSchemaDir()
Gettext.setUp(localeDir: paths.localeDir)

/// The in-process simulated receiver of --demo, on a free loopback port.
final class DemoReceiver: @unchecked Sendable {
    var server: CastReceiverServer?
    func start() async throws -> DeviceInfo {
        var config = ReceiverConfiguration()
        config.host = "127.0.0.1"
        // CASTDECK_DEMO_PORT pins the port (the GUI tests talk to the same receiver with castctl).
        config.port = getenv("CASTDECK_DEMO_PORT").flatMap { Int(String(cString: $0)) } ?? 0
        config.friendlyName = tr("Demo Receiver")
        config.model = "CastDeck Simulator"
        // The demo shows every control CastDeck has, Like and Dislike included.
        config.supportedMediaCommands.formUnion([.like, .dislike])
        // Cast Screen… and Cast Desktop Audio work on it too: the mirroring apps receive what
        // is sent (and keep nothing).
        config.apps += [ReceiverApp.chromeMirroring, ReceiverApp.audioMirroring]
        let s = CastReceiverServer(configuration: config)
        try await s.start()
        server = s
        let port = s.port ?? 8009
        return DeviceInfo(
            id: "demo-\(port)", friendlyName: config.friendlyName, model: tr("Simulated receiver"),
            host: "127.0.0.1", port: port, statusText: tr("Ready to cast"), origin: .demo)
    }
}
let demo = DemoReceiver()

let status: Int32 = MainActor.assumeIsolated {
    let services = makeServices(startDemoReceiver: { try await demo.start() })
    let app = CastDeckApplication(options: options, services: services, paths: paths)
    // CASTDECK_MAINLOOP_PROBE=PATH: how late the main loop runs its sources, once a second
    // (GLibInterop's MainLoopProbe; docs/gui.md). Tests read it to prove the window never stalls.
    var probe: MainLoopProbe?
    if let path = getenv("CASTDECK_MAINLOOP_PROBE").map({ String(cString: $0) }) {
        probe = MainLoopProbe(path: path)
        if probe == nil { printError("castdeck: CASTDECK_MAINLOOP_PROBE: cannot write \(path)") }
    }
    let status = app.run()
    probe?.finish()
    return status
}
exit(status)
