"""Text helpers every floor may use: scripts, tokens, language, cleaning, spans, message text."""
