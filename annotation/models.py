"""annotation models (filled by later work; the app exists from the first migration)."""
