"""players.token_version (revoking tokens) and tables.seats_changed_at (expiring open tables)

Issue 7, items 11 and 6: bumping a player's ``token_version`` invalidates every token issued
before; an open table whose seats have not changed for ``DINERI_OPEN_TABLE_TTL`` seconds
(``seats_changed_at``, or ``created_at`` while null) expires and leaves the lobby.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:00:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_version', sa.Integer(), server_default='0', nullable=False))
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seats_changed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('seats_changed_at')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('token_version')
