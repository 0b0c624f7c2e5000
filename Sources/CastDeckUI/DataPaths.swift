import CGtk
import GLibInterop

/// Where the app finds its data (.ui, CSS, icons, schemas, translations), installed or not.
///
/// Installed by meson: `<prefix>/bin/castdeck` with `<prefix>/share/castdeck` and
/// `<prefix>/share/locale`. Uninstalled (`swift build`): the executable lives in
/// `.build/<triple>/<config>/`; `.ui`/CSS come from the source tree's `data/` and compiled
/// schemas/translations from `.build/castdeck-data/` (scripts/build-data.sh).
/// `CASTDECK_DATADIR` / `CASTDECK_LOCALEDIR` override both.
public struct DataPaths: Sendable {
    public var dataDir: String
    public var localeDir: String
    /// Compiled schemas for uninstalled runs (nil when installed: GSettings finds them itself).
    public var schemaDir: String?

    public static func locate() -> DataPaths {
        let exeDir = dirname(realExecutablePath())
        let env = { (k: String) in getenv(k).map { String(cString: $0) } }
        let installedData = exeDir + "/../share/castdeck"
        if fileExists(installedData + "/ui/window.ui") {
            return DataPaths(dataDir: env("CASTDECK_DATADIR") ?? installedData,
                             localeDir: env("CASTDECK_LOCALEDIR") ?? exeDir + "/../share/locale",
                             schemaDir: nil)
        }
        // .build/<triple>/<config>/castdeck → source root is three levels up.
        let root = exeDir + "/../../.."
        let built = root + "/.build/castdeck-data"
        return DataPaths(dataDir: env("CASTDECK_DATADIR") ?? root + "/data",
                         localeDir: env("CASTDECK_LOCALEDIR") ?? built + "/locale",
                         schemaDir: built + "/schemas")
    }

    /// Points GSettings at the uninstalled schemas unless the user chose a directory.
    public func exportSchemaDir() {
        guard let schemaDir, getenv("GSETTINGS_SCHEMA_DIR") == nil,
              fileExists(schemaDir + "/gschemas.compiled") else { return }
        setenv("GSETTINGS_SCHEMA_DIR", schemaDir, 1)
    }

    public func ui(_ name: String) -> String { dataDir + "/ui/" + name }
    public var css: String { dataDir + "/style.css" }
    public var sampleArtwork: String { dataDir + "/sample/artwork.svg" }
    public var iconDir: String { dataDir + "/icons" }
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
