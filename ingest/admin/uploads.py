"""Stream an uploaded release archive straight into its staged folder.

Django's default handlers would buffer small files in memory and write large
ones to a shared temporary folder with no size limit; this handler writes the
one expected file into the private staged folder and stops the upload as soon
as it passes ``upload_max_bytes``, so an oversized body never fills the disk.
"""

from __future__ import annotations

import os
from pathlib import PurePath

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile, StopUpload
from django.utils.text import get_valid_filename

from ingest.running.staging import Staged

FIELD = "archive"

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def stored_name(client_name: str) -> str:
    """A safe local file name for the upload, keeping what is readable of the client's."""
    try:
        name = get_valid_filename(PurePath(client_name.replace("\\", "/")).name)
    except SuspiciousFileOperation:
        return "upload"
    return name[-120:] or "upload"


class ReleaseUploadHandler(FileUploadHandler):
    """Writes the ``archive`` file field to ``staged.upload_dir``; nothing else."""

    def __init__(self, request, *, staged: Staged, max_bytes: int):
        super().__init__(request)
        self.staged = staged
        self.max_bytes = max_bytes
        self.too_large = False
        self.path = None

    def new_file(self, field_name, file_name, *args, **kwargs):
        super().new_file(field_name, file_name, *args, **kwargs)
        if field_name != FIELD or self.path is not None:
            raise SkipFile()
        self.staged.upload_dir.mkdir(mode=0o700, exist_ok=True)
        self.path = self.staged.upload_dir / stored_name(file_name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW
        self.file = os.fdopen(os.open(self.path, flags, 0o600), "wb")
        self.written = 0

    def receive_data_chunk(self, raw_data, start):
        self.written += len(raw_data)
        if self.written > self.max_bytes:
            self.too_large = True
            self.upload_interrupted()
            # The rest of the body is at most upload_body_overhead_bytes (checked before
            # parsing), so reading it out keeps the connection usable.
            raise StopUpload(connection_reset=False)
        self.file.write(raw_data)
        return None

    def file_complete(self, file_size):
        self.file.close()
        return UploadedFile(
            file=open(self.path, "rb"),  # noqa: SIM115 - Django closes request files
            name=self.path.name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
        )

    def upload_interrupted(self):
        if self.path is not None:
            self.file.close()
            self.path.unlink(missing_ok=True)
