"""tables.creator_key (issue 7 item 6)

A keyed hash of the client address that created a table (dineri/server/addresses.py; never the
address), kept while the table is open, so the lobby lists at most DINERI_LOBBY_PER_ADDRESS tables
of one address. Tables stored before have none (null): no address cap applies to them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 17:00:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('creator_key', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('creator_key')
