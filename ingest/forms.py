"""Forms of the admin import screens."""

from __future__ import annotations

from django import forms

from ingest.admin import import_dir

HARBOR_BENCH_HELP = (
    "Only for Harbor jobs (an archive or folder of job or trial folders, told apart from a "
    "release by its content): the bench to import them into. Into an existing bench, "
    "the jobs' models are added or replaced and the other models kept."
)


class UploadForm(forms.Form):
    # ingest.admin.uploads.FIELD: the only file field the upload handler keeps.
    archive = forms.FileField(
        label="Release archive",
        help_text="A .zip or .tar.gz of a release folder (manifest.json at its root "
        "or inside one top-level folder).",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,.tar.gz,.tgz"}),
    )
    bench = forms.SlugField(
        required=False,
        label="Bench id (Harbor jobs)",
        help_text=HARBOR_BENCH_HELP,
        max_length=100,
    )


class ServerPickForm(forms.Form):
    name = forms.ChoiceField(label="Release on the server")
    bench = forms.SlugField(
        required=False, label="Bench id (Harbor jobs)", help_text=HARBOR_BENCH_HELP, max_length=100
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].choices = [(n, n) for n in import_dir.candidates()]
        self.fields["name"].help_text = f"Folders and archives in {import_dir.import_dir()}."


class ApplyForm(forms.Form):
    publish = forms.BooleanField(
        required=False,
        initial=True,
        label="Publish new batches at once",
        help_text="Unchecked, new batches stay staged (visible to staff only) until "
        "published from the bench's admin page.",
    )
