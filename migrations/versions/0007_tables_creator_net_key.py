"""tables.creator_net_key (issue 7 item 6)

A keyed hash of the wider network of the client address that created a table (an IPv6 /48; an
IPv4 address counts as itself: dineri/server/addresses.py wide_network_of; never the address),
kept while the table is open, so the lobby lists at most DINERI_LOBBY_PER_NETWORK tables of one
network (one free tunnel-broker /48 holds 65,536 /64s, each with its own per-address cap). Tables
stored before have none (null): no network cap applies to them (their address cap still does).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 18:00:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('creator_net_key', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('creator_net_key')
