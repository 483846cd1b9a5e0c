"""The worker pool: processes that read, fingerprint and measure, and the collection-wide steps run on them."""
