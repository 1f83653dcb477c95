"""Where the call log's text patterns can match, found in C (textscan.Needle).

``calllog.py`` tries each pattern only at the places its needles give (textscan.sub_at): the
fewer places that cannot match, the fewer Python loop turns a large string costs.
"""

from __future__ import annotations

import re

from mcp_review.store.textscan import Needle, Sparse

QUERY_STARTS: tuple[Needle, ...] = (
    (Sparse("?", re.compile(r"\?(?=[^=&#\s]++=)")), 0, 0),
    (Sparse("&", re.compile(r"&(?=[^=&#\s]++=)")), 0, 0),
)
"""Exactly the places ``calllog._URL_QUERY`` (``([?&])([^=&#\\s]+)=([^&#\\s]*)``) matches at:
its name runs to the first ``=``, ``&``, ``#`` or white space, which must be an ``=``. Each
is a :class:`textscan.Sparse`: a MiB of prose holds ~30 ``?``, found by memchr; a MiB of the
package's source ~2,400, of which ~40 start a query: each was tried by a loop turn and
``_URL_QUERY.match`` (2.4 ms a MiB), now the regex engine finds the ~40 (1.0 ms)."""
