// swift-tools-version:6.0
// CastDeck: a Google Cast controller for the Linux desktop.
// Targets and who may import whom: ../shared/docs/design.md (and README.md).
import PackageDescription

let package = Package(
    name: "CastDeck",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CastProtocol", targets: ["CastProtocol"]),
        .executable(name: "castdeck", targets: ["castdeck"]),
        .library(name: "CastClient", targets: ["CastClient"]),
        .library(name: "CastDiscovery", targets: ["CastDiscovery"]),
        .library(name: "CastReceiver", targets: ["CastReceiver"]),
        .library(name: "ImageCache", targets: ["ImageCache"]),
        .executable(name: "castctl", targets: ["castctl"]),
        .library(name: "LocalMedia", targets: ["LocalMedia"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
    ],
    targets: [
        // The wire: CastMessage protobuf, length framing, JSON models of every namespace. No I/O.
        .target(
            name: "CastProtocol",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto/cast_channel.proto"]
        ),
        .testTarget(
            name: "CastProtocolTests",
            dependencies: ["CastProtocol"],
            resources: [.copy("Fixtures")]
        ),
        // GUI: one Clang module for GLib/GIO/GTK 4/libadwaita (libadwaita-1.pc requires gtk4).
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]
        ),
        // The only places with Unmanaged/@convention(c): signals, main-loop bridge, gettext, GSettings.
        .target(name: "GLibInterop", dependencies: ["CGtk"]),
        .target(name: "GtkInterop", dependencies: ["CGtk", "GLibInterop"]),
        .testTarget(name: "GLibInteropTests", dependencies: ["GLibInterop", "GtkInterop", "CGtk"]),
        // @MainActor @Observable state and commands of the window; no GTK, tested headless.
        .target(name: "AppModel", dependencies: ["CastProtocol", "CastClient", "CastDiscovery"]),
        .testTarget(name: "AppModelTests", dependencies: ["AppModel", "CastProtocol", "CastReceiver"]),
        // Widgets and windows rendering AppModel.
        .target(name: "CastDeckUI", dependencies: ["AppModel", "GtkInterop", "GLibInterop", "CGtk", "CastProtocol"]),
        .executableTarget(name: "castdeck", dependencies: ["CastDeckUI", "AppModel", "GLibInterop", "CGtk", "CastReceiver", "CastProtocol", "ImageCache"]),
        // The sender: TLS connection, heartbeat, sessions, RemoteMediaClient, custom channels.
        .target(
            name: "CastClient",
            dependencies: [
                "CastProtocol",
                "CastProtocolNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // CastClient against the simulated receiver over real TLS on loopback.
        .testTarget(
            name: "CastClientTests",
            dependencies: ["CastClient", "CastReceiver", "CastProtocol"]
        ),
        // CastProtocol's framing as SwiftNIO handlers, shared by CastClient and CastReceiver.
        .target(
            name: "CastProtocolNIO",
            dependencies: ["CastProtocol", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // The simulated Cast receiver (an independent test oracle: never imports CastClient).
        .target(
            name: "CastReceiver",
            dependencies: [
                "CastProtocol",
                "CastProtocolNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                // --fetch-media: fetches media and text tracks as a device does.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "CastReceiverTests",
            dependencies: [
                "CastReceiver",
                "CastProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The command-line tool: wiring and argument parsing only; one file per subcommand.
        .executableTarget(
            name: "castctl",
            dependencies: [
                "CastReceiver",
                "CastClient",
                "CastProtocol",
                "CastDiscovery",
                "LocalMedia",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Fuzzing entry point for frame + JSON decoding: see scripts/fuzz.sh.
        // Built normally it replays files given on the command line through the same code.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(
            name: "castproto-fuzz",
            dependencies: ["CastProtocol", "CLibFuzzer"],
            path: "Fuzz/castproto-fuzz"
        ),
        // SET_PLAYBACK_RATE latency through CastClient; driven by Benchmarks/client/run.sh.
        .executableTarget(
            name: "castdeck-bench-client",
            dependencies: ["CastClient", "CastProtocol"],
            path: "Benchmarks/client/rate-latency"
        ),
        // Benchmarks print figures and compare with a peer in the same run: see Benchmarks/README.md.
        .executableTarget(
            name: "castdeck-bench-protocol",
            dependencies: ["CastProtocol"],
            path: "Benchmarks/protocol",
            exclude: ["pychromecast_decode.py"]
        ),
        .executableTarget(
            name: "castdeck-bench-receiver",
            dependencies: [
                "CastReceiver",
                "CastProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Benchmarks/receiver"
        ),
        // Discovery (issue 5): avahi-client through a system-library module, the browser,
        // the device registry and devices added by address, and the service publisher.
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]
        ),
        .target(
            name: "CastDiscovery",
            dependencies: ["CAvahi"]
        ),
        .testTarget(
            name: "CastDiscoveryTests",
            dependencies: ["CastDiscovery"]
        ),
        // Artwork: image picker and the on-disk image cache (docs/imagecache.md).
        .systemLibrary(
            name: "CGdkPixbuf",
            path: "Sources/CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        .target(
            name: "ImageCache",
            dependencies: [
                "CastProtocol",
                "CGdkPixbuf",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ImageCacheTests",
            dependencies: [
                "ImageCache", "CastProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            exclude: ["Fixtures"]
        ),
        // Child process for the crash-safety test: writes into a cache until it is SIGKILLed.
        .executableTarget(
            name: "imagecache-writer",
            dependencies: ["ImageCache"],
            path: "Tests/Helpers/imagecache-writer"
        ),
        .executableTarget(
            name: "castdeck-bench-imagecache",
            dependencies: [
                "ImageCache", "CGdkPixbuf",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/imagecache"
        ),
        // Casting files from this computer (issue 12): the media server (tokens, Range, CORS,
        // only the device may fetch), the ffprobe probe, sidecar subtitles → WebVTT, artwork,
        // and the CORS check before loading remote URLs.
        .target(
            name: "LocalMedia",
            dependencies: [
                "CastProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "LocalMediaTests",
            dependencies: [
                "LocalMedia", "CastProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
