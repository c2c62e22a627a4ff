//! Reading one text frame into a client message: the size limit, then the protocol's own type.
//! Pure, so every refusal can be tested without a socket; the rate limit is checked before this by
//! the connection (it needs a clock).

use evr_protocol::{ClientMsg, ErrorCode, MAX_FRAME_BYTES};

/// Why a frame was refused: the code and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
}

/// The client message in `text`, or why it is not one.
pub(crate) fn read(text: &str) -> Result<ClientMsg, Refusal> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(Refusal {
            code: ErrorCode::FrameTooLarge,
            message: format!("frames are at most {MAX_FRAME_BYTES} bytes"),
        });
    }
    serde_json::from_str(text).map_err(|e| Refusal {
        code: ErrorCode::BadMessage,
        message: format!("not a client message: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_message_is_read() {
        assert_eq!(read(r#"{"type":"ping"}"#), Ok(ClientMsg::Ping));
        assert!(matches!(
            read(r#"{"type":"hello","version":1,"token":null,"last_seq":4}"#),
            Ok(ClientMsg::Hello {
                version: 1,
                token: None,
                last_seq: Some(4)
            })
        ));
    }

    #[test]
    fn malformed_and_unknown_frames_are_bad_messages() {
        for text in ["{not json", r#"{"type":"teleport"}"#, "[]", r#"{"type":"action"}"#] {
            assert_eq!(read(text).map_err(|r| r.code), Err(ErrorCode::BadMessage), "{text}");
        }
    }

    #[test]
    fn a_frame_over_the_limit_is_refused_before_it_is_parsed() {
        let padded = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_FRAME_BYTES));
        assert_eq!(read(&padded).map_err(|r| r.code), Err(ErrorCode::FrameTooLarge));
        let just_fits = format!("{:<width$}", r#"{"type":"ping"}"#, width = MAX_FRAME_BYTES);
        assert_eq!(read(&just_fits), Ok(ClientMsg::Ping));
    }
}
