// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol
import Foundation

/// `castctl send --namespace NS [--app APPID] MESSAGE`: one message on a custom channel; prints the replies.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a message on an app's custom namespace and print the replies.",
        discussion: "Example: castctl send --namespace urn:x-cast:com.google.cast.sample.helloworld --app 12345678 '{\"hello\":1}'")

    @OptionGroup var options: ClientOptions

    @Option(help: ArgumentHelp("The namespace (urn:x-cast:…).", valueName: "NS"))
    var namespace: String

    @Option(help: ArgumentHelp("Join this app, launching it when it does not run (default: join the running app).", valueName: "APPID"))
    var app: String?

    @Option(help: ArgumentHelp("Seconds to keep listening for more replies after the first one.", valueName: "SECONDS"))
    var linger: Double = 0.5

    @Argument(help: "The message text (JSON by convention).")
    var message: String

    func validate() throws {
        do {
            try CastChannel.validate(namespace)
        } catch {
            throw ValidationError(error.description)
        }
        if let app, !(app.count == 8 && app.allSatisfy(\.isHexDigit)) { throw ValidationError("--app must be an 8-character hexadecimal app id.") }
        guard linger.isFinite, linger >= 0 else { throw ValidationError("--linger must be 0 or more seconds.") }
    }

    func run() async throws {
        let (namespace, app, message, timeout, linger, json) = (namespace, app, message, options.timeout, linger, options.json)
        let replies = try await options.withSession(networkThread: false) { session -> [CastPayload] in
            if let app {
                try await session.start(appID: app)
            } else {
                do {
                    try await session.join()
                } catch CastClientError.noRunningApp(let d) {
                    throw CommandFailure("No app is running on \(d): give --app APPID to launch one.")
                }
            }
            let channel = try await session.channel(namespace: namespace)
            guard await channel.isConnected else {
                let app = await session.sessionInfo?.appID ?? "?"
                throw CommandFailure("The running app \(app) does not list \(namespace), so the channel cannot connect.")
            }
            let incoming = channel.messages()
            try await channel.send(message)
            return await Self.collect(incoming, first: .milliseconds(Int64(timeout * 1000)), linger: .milliseconds(Int64(linger * 1000)))
        }
        for reply in replies {
            switch reply {
            case .string(let s): print(json ? Output.json(["namespace": namespace, "message": s]) : s)
            case .binary(let b): print(json ? Output.json(["namespace": namespace, "base64": Data(b).base64EncodedString()]) : Data(b).base64EncodedString())
            }
        }
        if replies.isEmpty {
            Console.err("castctl: no reply on \(namespace) within \(Output.number(timeout)) s (sent anyway).\n")
        }
    }

    /// Waits up to `first` for a reply, then keeps what arrives within `linger` of the last one.
    static func collect(_ stream: AsyncStream<CastPayload>, first: Duration, linger: Duration) async -> [CastPayload] {
        let box = ReplyBox()
        let reader = Task {
            for await m in stream { await box.add(m) }
        }
        let deadline = ContinuousClock.now + first
        while ContinuousClock.now < deadline, await box.count == 0 {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if await box.count > 0 {
            var seen = await box.count
            while true {
                try? await Task.sleep(for: linger)
                let now = await box.count
                if now == seen { break }
                seen = now
            }
        }
        reader.cancel()
        return await box.items
    }
}

actor ReplyBox {
    var items: [CastPayload] = []
    var count: Int { items.count }
    func add(_ m: CastPayload) { items.append(m) }
}
