"""Static files as production serves them, named by content and compressed (whitenoise)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    """Also names the web manifest's icons by their hashed names, as it does a stylesheet's
    images: only hashed names are served."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("*.webmanifest", ((r"""(?P<matched>"src":\s*"(?P<url>[^"]+)")""", '"src": "%(url)s"'),)),
    )
