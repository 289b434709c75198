-- A workspace database whose newest change is months old: the rows of Tests/Fixtures/markdown/march
-- as storage-sqlite holds them, and a change log that ends with a delete (FEAT-OLD, 9 March 16:00).
-- Applied after OrchestraWorkspace.ddl (Tests/TestSupport/OrchestraWorkspace.swift).
INSERT INTO projects (slug, name, created_at, updated_at) VALUES ('shop', 'shop', '2026-02-20T09:00:00Z', '2026-02-20T09:00:00Z');
INSERT INTO features (id, project_id, title, status, priority, estimate, labels, body, version, created_at, updated_at) VALUES ('FEAT-LOG', 'shop', 'Login flow', 'done', 'P1', 'M', '["area:auth"]', '# Login flow

Sign in with a password.

---
**in-progress -> in-review** (2026-03-04T11:00:00Z):
## Changes
- login.go


---
**Review (approved)** (2026-03-05T16:00:00Z): Ship it
', 3, '2026-02-23T09:00:00Z', '2026-03-05T16:00:00Z');
INSERT INTO features (id, project_id, title, status, priority, estimate, labels, body, version, created_at, updated_at) VALUES ('FEAT-PAY', 'shop', 'Payment form', 'in-testing', 'P1', 'L', '[]', '# Payment form

Card details and 3-D Secure.

---
**in-progress -> in-testing** (2026-03-09T14:30:00Z):
## Changes
- pay.go
', 2, '2026-02-24T09:00:00Z', '2026-03-09T14:30:00Z');
INSERT INTO features (id, project_id, title, status, priority, estimate, labels, body, version, created_at, updated_at) VALUES ('FEAT-CRT', 'shop', 'Cart totals', 'todo', 'P2', 'S', '[]', '# Cart totals

Taxes and shipping in the total.
', 1, '2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-LOG', 'upsert', 1, '2026-02-23T09:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-PAY', 'upsert', 1, '2026-02-24T09:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-OLD', 'upsert', 1, '2026-02-25T09:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-CRT', 'upsert', 1, '2026-03-02T10:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-LOG', 'upsert', 2, '2026-03-04T11:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-LOG', 'upsert', 3, '2026-03-05T16:00:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-PAY', 'upsert', 2, '2026-03-09T14:30:00Z');
INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-OLD', 'delete', 0, '2026-03-09T16:00:00Z');
