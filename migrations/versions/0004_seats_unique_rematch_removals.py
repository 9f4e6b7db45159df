"""seats unique per (table, player), tables.rematch_id, removals (several processes)

Issue 9 (and issue 7 item 10): one player holds at most one seat of a table even when two
processes seat them at once; the rematch table of a finished table is set once by a conditional
update (two processes racing create one); the players a host removed are stored, so no process
and no restart seats them again through a rematch.

Duplicate seats already stored at open tables are dropped (the lowest seat is kept); the
rematch of an existing finished table stays in its ``rematch`` event (read as before).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 13:00:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "DELETE FROM seats WHERE EXISTS (SELECT 1 FROM seats AS other, tables AS t "
        "WHERE other.table_id = seats.table_id AND other.player_id = seats.player_id "
        "AND other.seat < seats.seat AND t.id = seats.table_id AND t.status = 'open')")
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_unique_constraint('uq_seats_table_player', ['table_id', 'player_id'])
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rematch_id', sa.String(length=32), nullable=True))
    op.create_table('removals',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_removals_player_id_players')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_removals_table_id_tables'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'player_id', name=op.f('pk_removals'))
    )


def downgrade() -> None:
    op.drop_table('removals')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('rematch_id')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_constraint('uq_seats_table_player', type_='unique')
