"""Storage: SQLAlchemy models, repository functions, engine and Alembic migrations."""
