"""Forms of the admin import screens."""

from __future__ import annotations

import orjson
from django import forms

from formats.sources.harbor.errors import HarborError
from formats.sources.harbor.naming import MODELS_NAME, read_models_file
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.admin import import_dir
from ingest.running.jobs import chunked_refusal

EXCEPTIONS_CHOICES = [
    ("harbor", "harbor: the reward decides, as Harbor's result.json counts it"),
    ("fail", "fail: a trial that raised fails, whatever its reward"),
    ("terminal-bench", "terminal-bench: a trial that raised anything but a timeout is left out"),
]
EXCEPTIONS_HELP = (
    "Only for Harbor jobs: how a trial that raised an exception is scored (see docs/harbor.md)."
)


def exceptions_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=EXCEPTIONS_CHOICES,
        initial=DEFAULT_EXCEPTIONS_RULE,
        required=False,
        label="Trials that raised (Harbor jobs)",
        help_text=EXCEPTIONS_HELP,
    )


HARBOR_BENCH_HELP = (
    "For results that are not a release (told apart by their content), such as Harbor jobs "
    "(an archive or folder of job or trial folders): the bench to import them into. Into an "
    "existing bench, their models are added or replaced and the other models kept. For an "
    "input of several benches (swebench.com's leaderboards.json, OpenHands index results): "
    "the first part of each bench's id (swe-bench gives swe-bench-verified, ...)."
)


class HarborFields(forms.Form):
    """What import_harbor takes beside the bench id: --exceptions, --no-scrub and --models."""

    exceptions = exceptions_field()
    scrub = forms.BooleanField(
        required=False,
        initial=True,
        label="Scrub Harbor jobs",
        help_text="Rewrite runner home paths and internal host names in the jobs' files, each "
        "rewrite listed in the preview. Unchecked, the files are kept byte for byte and any "
        "such path or name refuses the import.",
    )
    models = forms.CharField(
        required=False,
        label="Models file (Harbor jobs)",
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        help_text='The JSON of import_harbor --models: a list of {"model_name", "agent", "id", '
        '"display_name", "provider"}, giving each model of the jobs its id, name and provider.',
    )

    def clean_models(self) -> list | None:
        text = self.cleaned_data["models"].strip()
        if not text:
            return None
        try:
            read_models_file(text.encode(), MODELS_NAME)
        except HarborError as exc:
            raise forms.ValidationError(exc.problems) from None
        return orjson.loads(text)


class UploadForm(HarborFields):
    # ingest.admin.uploads.FIELD: the only file field the upload handler keeps.
    archive = forms.FileField(
        label="Release archive",
        help_text="A .zip or .tar.gz of a release folder (manifest.json at its root "
        "or inside one top-level folder), of results (Harbor jobs, ...), or a results file "
        "such as swebench.com's leaderboards.json.",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,.tar.gz,.tgz,.json"}),
    )
    bench = forms.SlugField(
        required=False,
        label="Bench id (results)",
        help_text=HARBOR_BENCH_HELP,
        max_length=100,
    )


class ServerPickForm(HarborFields):
    name = forms.ChoiceField(label="Release on the server")
    bench = forms.SlugField(
        required=False, label="Bench id (results)", help_text=HARBOR_BENCH_HELP, max_length=100
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].choices = [(n, n) for n in import_dir.candidates()]
        self.fields["name"].help_text = f"Folders and archives in {import_dir.location()}."


CHUNKED_HELP = (
    "For a leaderboard-size release into a new bench, or replacing a bench whole (every "
    "attempt is written again): the bench is written a chunk at a time into a hidden copy "
    "and nothing shows, to staff either, until one small transaction swaps it in at the "
    "end. A killed import leaves its chunks hidden: retrying the job, or the next chunked "
    "import of the same bench, resumes them; manage.py import_cleanup removes them. "
    "Unchecked, the import is one transaction, all or nothing."
)


class ApplyForm(forms.Form):
    publish = forms.BooleanField(
        required=False,
        initial=True,
        label="Publish new batches at once",
        help_text="Unchecked, new batches stay staged (visible to staff only) until "
        "published from the bench's admin page.",
    )
    chunked = forms.BooleanField(
        required=False, initial=False, label="Write in chunks", help_text=CHUNKED_HELP
    )

    def __init__(self, *args, several: str = "", **kwargs):
        """``several``: the format of an input of several benches, which is written
        all or none and so not offered (or accepted) in chunks."""
        super().__init__(*args, **kwargs)
        self.several = several

    def clean_chunked(self) -> bool:
        chunked = self.cleaned_data["chunked"]
        if chunked and self.several:
            raise forms.ValidationError(chunked_refusal(self.several))
        return chunked
