import Glibc
import AppModel

// The production collaborators: CastClient sessions and CastDiscovery (Avahi). ImageCache is wired
// here when its branch lands (see the report); until then artwork comes from local files.

func makeConnector() -> any CastConnector { CastClientConnector() }
/// CASTDECK_NO_DISCOVERY=1 turns browsing off (tests, benchmarks and screenshots run outside the mDNS sandbox).
func makeBrowser() -> (any DeviceBrowser)? {
    getenv("CASTDECK_NO_DISCOVERY") == nil ? AvahiDeviceBrowser() : nil
}
func makeArtworkProvider() -> any ArtworkProvider { LocalArtworkProvider() }
