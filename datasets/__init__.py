"""Dataset importers and manifests (generated data goes to out/, never committed)."""
