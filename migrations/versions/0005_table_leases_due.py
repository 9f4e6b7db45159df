"""table leases and due times (issue 8 items 3 and 6, issue 9 item 1)

table_leases: one owner per table, with a fencing number; a table without a lease row is owned
by nobody (the first process to write it takes it). tables.due_at: when a match in progress next
needs its owner loaded (a turn clock or a grace period runs out); null for stored matches of
before, which are loaded once at the next start, in the background.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 13:20:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('table_leases',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('owner', sa.String(length=128), nullable=False),
    sa.Column('fence', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_table_leases_table_id_tables'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', name=op.f('pk_table_leases'))
    )
    with op.batch_alter_table('table_leases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_leases_owner'), ['owner'], unique=False)
        batch_op.create_index(batch_op.f('ix_table_leases_expires_at'), ['expires_at'], unique=False)
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('due_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_tables_due_at'), ['due_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_due_at'))
        batch_op.drop_column('due_at')
    op.drop_table('table_leases')
