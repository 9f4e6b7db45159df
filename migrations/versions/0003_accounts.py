"""accounts, ratings, rated tables, chat mutes and moderation (issue 14)

New tables only: every stored player, table and match is kept as it is (a guest who claims an
account keeps its player id, so its matches stay its own).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 09:40:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('username', sa.String(length=24), nullable=False),
    sa.Column('username_key', sa.String(length=96), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('hidden', sa.Boolean(), server_default='0', nullable=False),
    sa.Column('banned_reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_accounts_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', name=op.f('pk_accounts')),
    sa.UniqueConstraint('username_key', name=op.f('uq_accounts_username_key'))
    )
    op.create_table('moderation',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_moderation_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_moderation'))
    )
    with op.batch_alter_table('moderation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_moderation_player_id'), ['player_id'], unique=False)

    op.create_table('mutes',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('muted_id', sa.String(length=32), nullable=False),
    sa.ForeignKeyConstraint(['muted_id'], ['players.id'], name=op.f('fk_mutes_muted_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_mutes_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'muted_id', name=op.f('pk_mutes'))
    )
    op.create_table('ratings',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('mode', sa.String(length=32), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('rd', sa.Float(), nullable=False),
    sa.Column('vol', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_ratings_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'mode', name=op.f('pk_ratings'))
    )
    op.create_table('rated_tables',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_rated_tables_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', name=op.f('pk_rated_tables'))
    )
    op.create_table('rating_changes',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('mode', sa.String(length=32), nullable=False),
    sa.Column('before', sa.Float(), nullable=False),
    sa.Column('after', sa.Float(), nullable=False),
    sa.Column('rd_after', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_rating_changes_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_changes_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'player_id', name=op.f('pk_rating_changes'))
    )


def downgrade() -> None:
    op.drop_table('rating_changes')
    op.drop_table('rated_tables')
    op.drop_table('ratings')
    op.drop_table('mutes')
    with op.batch_alter_table('moderation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_moderation_player_id'))

    op.drop_table('moderation')
    op.drop_table('accounts')
