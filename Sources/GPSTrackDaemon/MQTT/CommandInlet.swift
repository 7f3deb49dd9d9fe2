/// A command as a channel took it: its payload (opened, with a secret) and, when it came
/// encrypted, its nonce, which a replay repeats.
struct InboundCommand: Sendable {
    var payload: [UInt8]
    var nonce: [UInt8]?
}

/// Commands handed from a channel's thread (mosquitto's, an uplink sender's) to the tracker in
/// the order they came: one task takes them off a stream. A task per command would be free to
/// run them out of order, and the last `setWaypoints` sent must be the set in force.
final class CommandInlet: Sendable {
    private let continuation: AsyncStream<[InboundCommand]>.Continuation

    /// Starts the task that runs each batch with `run`, one after the other.
    init(_ run: @escaping @Sendable ([InboundCommand]) async -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: [InboundCommand].self)
        self.continuation = continuation
        Task {
            for await batch in stream { await run(batch) }
        }
    }

    /// Queues a batch (a broker message, or the commands of one HTTP reply).
    func take(_ batch: [InboundCommand]) { continuation.yield(batch) }

    deinit { continuation.finish() }
}
