//! The stdio transport: `Content-Length` framed JSON-RPC messages on stdin
//! and stdout (LSP "Base Protocol").
//!
//! lsp-server's own stdio transport stops at the first message that is not
//! valid JSON-RPC; this one logs it to stderr and reads on, so that no input
//! ends the server. Only a broken frame (no `Content-Length`, or the stream
//! ending inside a message) ends reading, since nothing after it can be
//! found reliably.

use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Write};
use std::thread;

/// The result of reading one frame.
pub enum Frame {
    Message(Message),
    /// A frame whose content is no JSON-RPC message: why.
    Invalid(String),
}

/// Reads one framed message; `Ok(None)` at the end of the stream.
pub fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut line = String::new();
    let mut any_header = false;
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return if any_header {
                Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the stream ended inside a message header",
                ))
            } else {
                Ok(None)
            };
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            if any_header {
                break;
            }
            // Blank lines between messages are harmless.
            continue;
        }
        any_header = true;
        if let Some((name, value)) = l.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let Some(length) = length else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a message header without a valid Content-Length",
        ));
    };
    let mut body = vec![0; length];
    r.read_exact(&mut body)?;
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Invalid(format!(
            "ignored a message that is not JSON-RPC ({e}): {}",
            String::from_utf8_lossy(&body[..body.len().min(200)])
        )),
    }))
}

/// Threads that move messages between the connection and stdio.
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits until every message the server sent is written. The reader is
    /// waited for only when it has already stopped (after `exit` or the end
    /// of input): a server that stops for another reason must not hang on
    /// a blocking read of stdin. Returns an I/O error of either thread.
    pub fn join(self) -> io::Result<()> {
        let w = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        let r = if self.reader.is_finished() {
            self.reader
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")))
        } else {
            Ok(())
        };
        r.and(w)
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, IoThreads) {
    // An in-memory pair: the server gets one end, the two threads share the
    // other (the reader sends what comes in, the writer drains what goes out
    // and stops when the server drops its end).
    let (server, io_end) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = io_end;
    let reader = thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        while let Some(frame) = read_frame(&mut input)? {
            match frame {
                Frame::Message(m) => {
                    let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                    if to_server.send(m).is_err() || exit {
                        break;
                    }
                }
                Frame::Invalid(why) => eprintln!("hlslc lsp: {why}"),
            }
        }
        Ok(())
    });
    let writer = thread::spawn(move || {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for m in &from_server {
            m.write(&mut out)?;
            out.flush()?;
        }
        Ok(())
    });
    (server, IoThreads { reader, writer })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn reads_on_past_invalid_messages() {
        let input = format!(
            "{}{}\r\n{}",
            frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
        );
        let mut r = io::Cursor::new(input.into_bytes());
        assert!(matches!(
            read_frame(&mut r).unwrap(),
            Some(Frame::Message(Message::Notification(_)))
        ));
        assert!(matches!(
            read_frame(&mut r).unwrap(),
            Some(Frame::Invalid(_))
        ));
        assert!(matches!(
            read_frame(&mut r).unwrap(),
            Some(Frame::Message(Message::Request(_)))
        ));
        assert!(read_frame(&mut r).unwrap().is_none());
    }

    #[test]
    fn broken_frames_are_errors() {
        let mut r = io::Cursor::new(b"Content-Type: x\r\n\r\n{}".to_vec());
        assert!(read_frame(&mut r).is_err());
        let mut r = io::Cursor::new(b"Content-Length: 99\r\n\r\n{}".to_vec());
        assert!(read_frame(&mut r).is_err());
        let mut r = io::Cursor::new(b"Content-Length: 2\r\n".to_vec());
        assert!(read_frame(&mut r).is_err());
    }
}
