"""The admin pages and JSON API (issue 3 item 7, issue 4 item 3).

``create_app`` includes ``dineri.admin.routes.admin_router(settings, sessionmaker)``; with no
``DINERI_ADMIN_TOKEN`` that router is empty, so every admin path answers 404.
Modules: :mod:`~dineri.admin.auth` (token and cookie), :mod:`~dineri.admin.queries` (the match
list), :mod:`~dineri.admin.replay` (log and replay steps), :mod:`~dineri.admin.i18n` (languages).
"""
