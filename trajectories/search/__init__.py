"""Search across every trajectory a visitor may see.

``query`` parses the query language, ``backends`` turns its words into each
database's full-text match, ``engine`` runs a search (results grouped by
attempt, facets, paging) and ``snippets`` cuts and highlights escaped text.
"""
