"""The peer's own board truth: what `board_snapshot` returns.

Deliberately simple — the peer is a test double, not a second reducer. It applies the events the
tests publish so that "after the peer returns, the board equals the peer's truth" can be checked:

  feature.created        the payload becomes the feature (replacing one with the same id)
  feature.updated        the payload's fields (except id/feature_id) are merged into the feature;
                         an update of an unknown feature is ignored (a server would not send one)
  feature.deleted        the feature is removed (sprint membership lists are left alone)
  workflow.transitioned  the feature's status becomes `to`
  workflow.defined       replaces the workflow of the same project_id (or appends it)
  sprint.created         the payload becomes the sprint
  sprint.started         the payload's Sprint fields are merged; it becomes the active sprint
  sprint.scope_changed   `added` ids are appended to feature_ids (once), `removed` ids dropped
  sprint.closed          if it was the active sprint, there is no active sprint any more
  board.snapshot         replaces everything
  anything else          changes nothing (heartbeat, unknown topics)

Sequence numbers follow the client's rule: an event whose seq is not greater than the last one is
a duplicate and changes nothing; a jump is accepted (the gap is the test's business).
"""

import copy

# Keys that identify or sequence an event rather than describe the entity.
_NOT_FIELDS = {"id", "feature_id", "seq"}
# Event keys of sprint.started that are not Sprint fields.
_SPRINT_STARTED_ONLY = {"started_at"}


class Truth:
    def __init__(self, snapshot=None):
        self.features = {}  # id → feature dict, in creation order
        self.sprints = {}  # id → sprint dict, in creation order
        self.workflows = []
        self.active_sprint_id = None
        self.seq = 0  # the last sequence number applied
        if snapshot is not None:
            self._replace(snapshot)

    def _replace(self, snapshot):
        self.features = {f["id"]: copy.deepcopy(f) for f in snapshot.get("features", [])}
        self.sprints = {s["id"]: copy.deepcopy(s) for s in snapshot.get("sprints", [])}
        self.workflows = copy.deepcopy(snapshot.get("workflows", []))
        self.active_sprint_id = snapshot.get("active_sprint_id")
        if isinstance(snapshot.get("seq"), (int, float)):
            self.seq = int(snapshot["seq"])

    def is_duplicate(self, seq):
        return seq <= self.seq

    def apply(self, topic, payload, seq):
        """Applies one event; returns False (and changes nothing) for a duplicate seq."""
        if self.is_duplicate(seq):
            return False
        self.seq = seq
        p = {k: v for k, v in payload.items() if k != "seq"}
        fid = p.get("id", p.get("feature_id"))
        if topic == "feature.created" and "id" in p:
            self.features[p["id"]] = copy.deepcopy(p)
        elif topic == "feature.updated" and fid in self.features:
            self.features[fid].update({k: copy.deepcopy(v) for k, v in p.items() if k not in _NOT_FIELDS})
        elif topic == "feature.deleted":
            self.features.pop(fid, None)
        elif topic == "workflow.transitioned" and p.get("feature_id") in self.features and "to" in p:
            self.features[p["feature_id"]]["status"] = p["to"]
        elif topic == "workflow.defined":
            project = p.get("project_id")
            self.workflows = [w for w in self.workflows if w.get("project_id") != project]
            self.workflows.append(copy.deepcopy(p))
        elif topic == "sprint.created" and "id" in p:
            self.sprints[p["id"]] = copy.deepcopy(p)
        elif topic == "sprint.started" and "id" in p:
            sprint = self.sprints.setdefault(p["id"], {"id": p["id"]})
            sprint.update({k: copy.deepcopy(v) for k, v in p.items() if k not in _SPRINT_STARTED_ONLY})
            self.active_sprint_id = p["id"]
        elif topic == "sprint.scope_changed" and p.get("sprint_id") in self.sprints:
            sprint = self.sprints[p["sprint_id"]]
            members = [m for m in sprint.get("feature_ids", []) if m not in set(p.get("removed", []))]
            members += [a for a in p.get("added", []) if a not in members]
            sprint["feature_ids"] = members
        elif topic == "sprint.closed":
            if self.active_sprint_id == p.get("id"):
                self.active_sprint_id = None
        elif topic == "board.snapshot":
            self._replace(p)
            self.seq = seq
        return True

    def snapshot(self):
        """The board in the `board.snapshot` payload shape of events.md."""
        out = {
            "features": copy.deepcopy(list(self.features.values())),
            "sprints": copy.deepcopy(list(self.sprints.values())),
            "seq": self.seq,
        }
        if self.workflows:
            out["workflows"] = copy.deepcopy(self.workflows)
        if self.active_sprint_id is not None:
            out["active_sprint_id"] = self.active_sprint_id
        return out
