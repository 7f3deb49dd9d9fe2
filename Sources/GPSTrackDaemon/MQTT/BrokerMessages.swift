import GPSTrackJSON
import GPSTrackProtocol

/// The messages the daemon publishes about itself and its commands (besides OwnTracks'), each
/// a value written by the one JSON writer (`ReplyEncoder`), members in the order they have
/// always had on the wire.
enum BrokerMessage {
    /// `<base>/cmd/result` for a command run: `{"_type":"cmdresult","action":…,"cmd":{…},
    /// "result":"done"|"failed","reason":…,"reply":{…},"tst":…}`; `cmd` left out for a pushed
    /// set, `reason` only when it failed, `reply` only when there is one.
    struct CommandResult: Encodable {
        var action: String
        var cmd: MQTTCommand?
        var outcome: Result<String, ControlError>
        var reply: (any Encodable)?
        var tst: Int

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode("cmdresult", forKey: "_type")
            try c.encode(action, forKey: "action")
            if let cmd { try c.encode(cmd, forKey: "cmd") }
            switch outcome {
            case .success: try c.encode("done", forKey: "result")
            case .failure(let e):
                try c.encode("failed", forKey: "result")
                try c.encode(e.message, forKey: "reason")
            }
            if let reply { try c.encode(reply, forKey: "reply") }
            try c.encode(tst, forKey: "tst")
        }
    }

    /// `<base>/cmd/result` for a refused command; `action` null when the payload named none.
    struct Refused: Encodable {
        var _type = "cmdresult"
        var action: String?
        var result = "refused"
        var reason: String
        var tst: Int
    }

    /// The `status` message: its own members, then the control socket's status reply's.
    struct Status: Encodable {
        var tst: Int
        var fencesLoaded: Int
        var lastError: String?
        var reply: StatusReply

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode("status", forKey: "_type")
            try c.encode(tst, forKey: "tst")
            try c.encode(fencesLoaded, forKey: "fences_loaded")
            if let lastError {
                try c.encode(lastError, forKey: "last_error")
            } else {
                try c.encodeNil(forKey: "last_error")
            }
            // The reply's members go on in the same object: one flat message, as it has always been.
            try reply.encode(to: encoder)
        }
    }

    /// The last will, published by the broker when the daemon is gone without a goodbye.
    struct LastWill: Encodable {
        var _type = "lwt"
        var tst: Int
    }

    /// An encrypted message: `data` the base64 of nonce and ciphertext.
    struct Encrypted: Encodable {
        var _type = "encrypted"
        var data: String
    }

    /// The reply to a pushed set: how many were pushed, how many fences are now in force.
    struct Pushed: Encodable {
        var ok = true
        var pushed: Int
        var fences: Int
    }
}
