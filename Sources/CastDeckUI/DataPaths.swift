import GLibInterop
// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Glibc

/// Where the app finds the data that is not compiled into it: the GSettings schema, the
/// translations and the demo's sample artwork. (.ui files, CSS and icons are a GResource linked
/// into the binary; see CastDeckApplication.resourcePath.)
///
/// Installed by meson: `<prefix>/bin/castdeck` with `<prefix>/share/castdeck` and
/// `<prefix>/share/locale`; GSettings finds the installed schema itself. Uninstalled: the
/// source tree this binary was built from, a path fixed at build time (`#filePath`), with the
/// schema and translations compiled by scripts/build-data.sh into `.build/castdeck-data/`,
/// whatever `--scratch-path` built the binary and wherever it was copied.
/// `CASTDECK_DATADIR` / `CASTDECK_LOCALEDIR` override both.
public struct DataPaths: Sendable {
    public var dataDir: String
    public var localeDir: String
    /// Compiled schemas for uninstalled runs (nil when installed: GSettings finds them itself).
    public var schemaDir: String?

    /// The source tree's root, as it was when this file was compiled.
    static let sourceRoot: String = {
        var path = #filePath  // <root>/Sources/CastDeckUI/DataPaths.swift
        for _ in 0..<3 { path = dirname(path) }
        return path
    }()

    public static func locate() -> DataPaths {
        let exeDir = dirname(realExecutablePath())
        let env = { (k: String) in getenv(k).map { String(cString: $0) } }
        let installedData = exeDir + "/../share/castdeck"
        if fileExists(installedData + "/sample/artwork.svg") {
            return DataPaths(
                dataDir: env("CASTDECK_DATADIR") ?? installedData,
                localeDir: env("CASTDECK_LOCALEDIR") ?? exeDir + "/../share/locale",
                schemaDir: nil)
        }
        let built = sourceRoot + "/.build/castdeck-data"
        return DataPaths(
            dataDir: env("CASTDECK_DATADIR") ?? sourceRoot + "/data",
            localeDir: env("CASTDECK_LOCALEDIR") ?? built + "/locale",
            schemaDir: built + "/schemas")
    }

    /// Points GSettings at the uninstalled schemas unless the user chose a directory.
    public func exportSchemaDir() {
        guard let schemaDir, getenv("GSETTINGS_SCHEMA_DIR") == nil,
            fileExists(schemaDir + "/gschemas.compiled")
        else { return }
        setenv("GSETTINGS_SCHEMA_DIR", schemaDir, 1)
    }

    public var sampleArtwork: String { dataDir + "/sample/artwork.svg" }
    /// The poster of the demo's first ad clip.
    public var sampleAdPoster: String { dataDir + "/sample/ad-poster.svg" }
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

func dirname(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

func realExecutablePath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
