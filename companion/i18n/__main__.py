"""``python -m companion.i18n update|compile|check [catalog ...]`` (:mod:`.catalogs`)."""

from .catalogs import main

raise SystemExit(main())
