"""tables.host_here_until (issue 7 item 6)

Until when a table's host is known to have a socket open at it (any process of the site pushes
it forward while the host is connected there; the close of the host's last socket sets it to that
moment). The lobby ranks open tables whose host is here over those whose host left, and leaves
out open tables whose host has been gone longer than DINERI_LOBBY_HOST_AWAY. Tables stored
before have none (null): the lobby counts from their creation.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 20:00:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('host_here_until', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('host_here_until')
