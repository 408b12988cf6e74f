"""HTTP service (FastAPI): ``api.main:app``, built by :func:`api.app.create_app`."""
