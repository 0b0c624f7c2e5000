// SPDX-License-Identifier: GPL-3.0-or-later
// The log lines castctl and the window write to standard error.
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes log lines to standard error in swift-log's `StreamLogHandler` layout
/// (`2026-11-25T10:00:00+0000 warning label: key=value [module] message`).
///
/// The difference is when metadata becomes text: `StreamLogHandler` renders its metadata
/// every time a key is set, and each connection and session sets one (`cast.device`). A short
/// castctl process that logs nothing paid for those renderings, and their first use of
/// generic sorting and joining cost a scan of the binary's conformance records. Here the text
/// is made only for a line that is written.
public struct StandardErrorLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, logLevel: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { all.merge(provided) { $1 } }
        if let explicit = event.metadata, !explicit.isEmpty { all.merge(explicit) { $1 } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = Self.timestamp() + " \(event.level)" + (label.isEmpty ? "" : " ") + label + ":"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line += " [\(event.source)] \(event.message)\n"
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }  // standard error is gone: nothing to tell anyone
            offset += n
        }
    }

    /// Local time as ISO 8601 with the offset, as StreamLogHandler writes it.
    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
