//! alsa-lib's own messages, kept off stderr.
//!
//! alsa-lib prints what it could not open (`ALSA lib confmisc.c:855:(parse_card) cannot find
//! card '0'`, and seven more lines on a machine without a sound card) straight to stderr, so
//! they land on the visitor's terminal and in the journal beside the robot's one warning. The
//! `alsa` crate can route them to a buffer for the calling thread; the speaker does that while
//! it opens the device and logs the buffer at debug level.

/// The messages alsa-lib writes on this thread from [`capture`](AlsaMessages::capture) on.
pub(crate) struct AlsaMessages {
    #[cfg(target_os = "linux")]
    buffer: Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>>,
}

impl AlsaMessages {
    /// Routes alsa-lib's messages on this thread to a buffer (nothing elsewhere than Linux).
    pub(crate) fn capture() -> AlsaMessages {
        AlsaMessages {
            #[cfg(target_os = "linux")]
            buffer: alsa::Output::local_error_handler().ok(),
        }
    }

    /// Logs what alsa-lib said since [`capture`](AlsaMessages::capture), one debug line each.
    pub(crate) fn log_at_debug(&self) {
        #[cfg(target_os = "linux")]
        if let Some(buffer) = &self.buffer {
            for line in buffer.borrow().to_string().lines() {
                tracing::debug!(target: "alsa", "{line}");
            }
        }
    }
}
