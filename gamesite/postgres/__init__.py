"""Django's PostgreSQL backend, its pool checking a lent connection without a round trip
(gamesite/postgres/base.py); settings.DATABASES names it for every PostgreSQL URL."""
