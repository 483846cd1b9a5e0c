"""The toolkit-free engine: no Qt here, ever (a test checks this in a fresh interpreter)."""
