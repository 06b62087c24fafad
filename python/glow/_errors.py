"""The package's exceptions."""


class GlowError(RuntimeError):
    """A glow tool refused the model or failed; the message is the tool's one-line error."""
