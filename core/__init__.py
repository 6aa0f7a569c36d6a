"""Site-level concerns every app shares: middleware, the page and API answer
caches, /healthz, the 404/500 views, and helpers every app may import
(formatting, jsonsafe).

core sits below the apps: any app may import it, and it imports no app. Where
it needs an app's answer (the site's generation, who sees staged batches,
whether a task is unreleased) it asks through a hook named in settings
(``BENCHVIEW_HOOKS``, read by core.hooks).
"""
