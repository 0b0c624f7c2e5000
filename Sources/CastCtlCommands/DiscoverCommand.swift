// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastDiscovery
import Foundation

/// `castctl discover`: list Cast devices found through Avahi, beside devices added by address.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the Cast devices on the network (mDNS through avahi-daemon) and those added by address.",
        discussion: """
            Listens for --timeout seconds (or until --count devices are known), then prints one line per \
            device: name, id, model, address:port, status text. Devices added with --add HOST[:PORT] are \
            remembered in $XDG_CONFIG_HOME/castdeck/devices.json and listed even when Avahi is not running.
            """
    )

    @Option(help: ArgumentHelp("Seconds to listen before listing.", valueName: "seconds"))
    var timeout: Double = 3

    @Option(help: ArgumentHelp("Stop listening as soon as this many devices are known.", valueName: "n"))
    var count: Int?

    @Option(
        help: ArgumentHelp(
            "Look on this network interface only (e.g. wlan0, leaving out a VPN or a Docker bridge).", valueName: "NAME"))
    var interface: String?

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Remember a device by its address, then list.", valueName: "HOST[:PORT]"))
    var add: [String] = []

    @Option(help: ArgumentHelp("Forget a device added by address, then list.", valueName: "HOST:PORT"))
    var forget: [String] = []

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds.") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        for address in add {
            do { _ = try DeviceAddress(parsing: address) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let directory = DeviceDirectory(prober: CastClientProber(), browser: CastBrowser(waitForDaemon: false, interface: interface))
        await directory.start()
        if let problem = await directory.storeProblem {
            Console.err("castctl: \(problem)\n")
        }
        do {
            for address in add { try await directory.add(address: address) }
            for id in forget {
                let address = try DeviceAddress(parsing: id)
                try await directory.forget(id: address.description)
            }
        } catch {
            await directory.stop()
            throw CommandFailure("\(error)")
        }

        let wanted = count
        let deadline = Task {
            try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
            await directory.stop()
        }
        var known = Set<String>()
        var unavailable: DiscoveryError?
        for await event in directory.events {
            switch event {
            case let .added(device):
                known.insert(device.id)
            case let .removed(device):
                known.remove(device.id)
            case let .unavailable(error):
                unavailable = error
                Console.err("castctl: \(error)\n")
                // Nothing more will come from the network. With no added devices there is
                // nothing to wait for; otherwise their probes answer before the deadline.
                if await directory.devices.isEmpty { await directory.stop() }
            case .updated, .browsing:
                break
            }
            if let wanted, known.count >= wanted { await directory.stop() }
        }
        deadline.cancel()
        let devices = await directory.devices
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(devices.map(DeviceJSON.init))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Output.terminalSafe(Self.table(devices)))
        }
        if unavailable != nil && devices.isEmpty { throw ExitCode(1) }
    }

    static func table(_ devices: [CastDevice]) -> String {
        let header = ["NAME", "ID", "MODEL", "ADDRESS", "STATUS"]
        let rows = devices.map { d -> [String] in
            var model = d.model ?? "-"
            if d.isGroup, d.model != CastDevice.groupModel { model += " (group)" }
            if d.source == .manual { model += " (added)" }
            return [d.friendlyName, d.id, model, d.address, d.statusText ?? "-"]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// The JSON shape of one device in `castctl discover --json`.
struct DeviceJSON: Encodable {
    var id: String
    var name: String
    var model: String?
    var host: String
    var port: Int
    var address: String
    var statusText: String?
    var iconPath: String?
    var isGroup: Bool
    var isBusy: Bool
    var capabilities: UInt64
    var source: String
    var txt: [String: String]

    init(_ d: CastDevice) {
        id = d.id
        name = d.friendlyName
        model = d.model
        host = d.host
        port = d.port
        address = d.address
        statusText = d.statusText
        iconPath = d.iconPath
        isGroup = d.isGroup
        isBusy = d.isBusy
        capabilities = d.capabilities.rawValue
        source = d.source.rawValue
        txt = d.txt
    }
}
