// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The one clock tick of every surface that shows the position (the main window's mini and
/// expanded controllers, the mini player). The position is not a stored property: AppModel
/// interpolates it from the latest status when asked, so between status messages something
/// must ask. One rule for all: while media or an ad plays and at least one of the surfaces is
/// on screen, a 500 ms GLib timeout redraws the shown ones; otherwise no timer runs and an
/// idle CastDeck sleeps.
@MainActor
final class PlaybackClock {
    static let intervalMS: UInt32 = 500

    private struct Surface {
        let isShown: @MainActor () -> Bool
        let tick: @MainActor () -> Void
    }

    let model: AppModel
    private var source: UInt32 = 0
    private var surfaces: [ObjectIdentifier: Surface] = [:]

    init(model: AppModel) { self.model = model }

    /// Redraws `owner` with `tick` while the clock runs and `isShown` says it is on screen.
    func add(_ owner: AnyObject, isShown: @escaping @MainActor () -> Bool, tick: @escaping @MainActor () -> Void) {
        surfaces[ObjectIdentifier(owner)] = Surface(isShown: isShown, tick: tick)
        update()
    }

    func remove(_ owner: AnyObject) {
        surfaces[ObjectIdentifier(owner)] = nil
        if surfaces.isEmpty { stop() }
    }

    /// Whether the clock should run now. Reads the model, so a render inside `observe` that
    /// calls `update()` runs again when playback starts or stops.
    private var wanted: Bool {
        (model.isPlaying || model.isPlayingAd) && surfaces.values.contains { $0.isShown() }
    }

    /// Starts the tick if it is wanted and not running; it stops itself once it is not wanted.
    func update() {
        guard source == 0, wanted else { return }
        source = GLibSource.timeout(ms: Self.intervalMS) { [weak self] in
            guard let self else { return false }
            guard self.wanted else {
                self.source = 0
                return false
            }
            for surface in self.surfaces.values where surface.isShown() { surface.tick() }
            return true
        }
    }

    private func stop() {
        GLibSource.remove(source)
        source = 0
    }
}
