package main

// The read tools of upstream's tools.features plugin, answering as the plugin shapes its results:
// ToolResponse.result is a Struct {"text": markdown} and, in the newest plugin (v1.0.6, sdk-go
// v1.0.6 helpers.RichResult), also "_ui": {view, entity_type, data, columns, actions, pagination,
// groups}. Restated from the plugin's and sdk-go's sources; see UPSTREAM-TOOLS.md for the files.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Flavours of the plugin the peer can imitate.
const (
	flavorUI     = "ui"     // plugin-tools-features 15bd891 / sdk-go v1.0.6: text + _ui, pagination
	flavorText   = "text"   // plugin-tools-features 9a4e3bc / sdk-go v1.0.5: text only, pagination
	flavorLegacy = "legacy" // plugin-tools-features ≤ 8c74443: text only, no pagination
)

// toolResult is what a handler returns: either a result Struct or an error code + message.
type toolResult struct {
	ok      bool
	result  map[string]any
	code    string
	message string
}

func textResult(text string) toolResult {
	return toolResult{ok: true, result: map[string]any{"text": text}}
}

func errorResult(code, message string) toolResult {
	return toolResult{code: code, message: message}
}

// richResult: text plus "_ui" (the UI metadata is JSON-marshalled, then read back as a map,
// exactly the round trip upstream makes, so nil slices become null and structs become objects).
func (t *tools) richResult(text string, ui map[string]any) toolResult {
	if t.flavor != flavorUI || ui == nil {
		return textResult(text)
	}
	raw, err := json.Marshal(ui)
	if err != nil {
		panic(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		panic(err)
	}
	return toolResult{ok: true, result: map[string]any{"text": text, "_ui": back}}
}

type tools struct {
	store  *Store
	flavor string
}

// readTools are the tools the peer serves, in upstream's registration order.
var readTools = []string{
	"list_projects", "get_project_status", "get_feature", "list_features", "search_features",
	"get_workflow_status", "get_progress", "get_blocked_features", "get_review_queue",
}

// otherFeatureTools are tools.features tools the peer knows by name but does not serve
// (writes and the rest): answered with error_code "peer_unimplemented" so a test notices.
var otherFeatureTools = strings.Fields(`create_project delete_project create_feature update_feature
delete_feature advance_feature reject_feature get_next_feature set_current_feature
get_gate_requirements submit_review get_pending_reviews unlock_feature add_dependency
remove_dependency get_dependency_graph set_wip_limits get_wip_limits check_wip_limit add_labels
remove_labels assign_feature unassign_feature set_estimate save_feature_note list_feature_notes
create_plan get_plan list_plans update_plan approve_plan breakdown_plan complete_plan delete_plan
create_request list_requests get_request convert_request dismiss_request get_next_request
delegate_feature respond_delegation get_delegation list_delegations get_pending_delegations
create_bug_report create_test_case bulk_create_test_cases create_person get_person list_persons
update_person delete_person bulk_assign_features create_assignment_rule list_assignment_rules
delete_assignment_rule get_person_workload set_current_user get_current_user get_my_features
git_quick_commit git_push git_pull git_merge_branch git_status_summary git_create_branch
create_workflow get_workflow update_workflow delete_workflow list_workflows`)

func (t *tools) serves(name string) bool {
	for _, n := range readTools {
		if n == name {
			return true
		}
	}
	return false
}

func (t *tools) knows(name string) bool {
	for _, n := range otherFeatureTools {
		if n == name {
			return true
		}
	}
	return false
}

// ---- argument helpers (upstream's helpers.GetString / GetInt / ValidateRequired semantics) ----

func argString(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

func argInt(args map[string]any, key string) int {
	f, ok := args[key].(float64)
	if !ok {
		return 0
	}
	return int(f)
}

func validateRequired(args map[string]any, fields ...string) error {
	if args == nil {
		return fmt.Errorf("arguments are required: %s", strings.Join(fields, ", "))
	}
	var missing []string
	for _, f := range fields {
		if argString(args, f) == "" {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing required fields: %s", strings.Join(missing, ", "))
	}
	return nil
}

type page struct{ limit, offset int }

func parsePage(args map[string]any) page {
	p := page{argInt(args, "limit"), argInt(args, "offset")}
	if p.limit <= 0 {
		p.limit = 50
	}
	if p.limit > 200 {
		p.limit = 200
	}
	if p.offset < 0 {
		p.offset = 0
	}
	return p
}

// paginate returns nil (not an empty slice) when the offset is at or past the end, as
// upstream's PaginateSlice does; that nil becomes `"data": null` in _ui.
func paginate(fs []Feature, p page) []Feature {
	if p.offset >= len(fs) {
		return nil
	}
	end := p.offset + p.limit
	if end > len(fs) {
		end = len(fs)
	}
	return fs[p.offset:end]
}

// ---- markdown (restating sdk-go helpers/results.go) ----

func kindOrDefault(k string) string {
	if k == "" {
		return "feature"
	}
	return k
}

func featureMD(f *Feature) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s — %s\n", f.ID, f.Title)
	fmt.Fprintf(&b, "- **Status:** %s\n", f.Status)
	fmt.Fprintf(&b, "- **Priority:** %s\n", f.Priority)
	if f.Kind != "" {
		fmt.Fprintf(&b, "- **Kind:** %s\n", f.Kind)
	}
	if f.Assignee != "" {
		fmt.Fprintf(&b, "- **Assignee:** %s\n", f.Assignee)
	}
	if f.Estimate != "" {
		fmt.Fprintf(&b, "- **Estimate:** %s\n", f.Estimate)
	}
	if len(f.Labels) > 0 {
		fmt.Fprintf(&b, "- **Labels:** %s\n", strings.Join(f.Labels, ", "))
	}
	if f.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", f.Description)
	}
	return b.String()
}

func featureListMD(fs []Feature, header string) string {
	if len(fs) == 0 {
		return fmt.Sprintf("## %s\n\nNo features found.\n", header)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (%d)\n\n", header, len(fs))
	b.WriteString("| ID | Title | Status | Priority | Kind | Assignee |\n")
	b.WriteString("|----|-------|--------|----------|------|----------|\n")
	for _, f := range fs {
		assignee := f.Assignee
		if assignee == "" {
			assignee = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", f.ID, f.Title, f.Status, f.Priority, kindOrDefault(f.Kind), assignee)
	}
	return b.String()
}

func projectMD(p *Project) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Project: %s\n", p.Name)
	fmt.Fprintf(&b, "- **Slug:** %s\n", p.Slug)
	if p.Description != "" {
		fmt.Fprintf(&b, "- **Description:** %s\n", p.Description)
	}
	fmt.Fprintf(&b, "- **Created:** %s\n", p.CreatedAt)
	return b.String()
}

func projectListMD(ps []Project) string {
	if len(ps) == 0 {
		return "## Projects\n\nNo projects found.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Projects (%d)\n\n", len(ps))
	for _, p := range ps {
		desc := ""
		if p.Description != "" {
			desc = " — " + p.Description
		}
		fmt.Fprintf(&b, "- **%s** (`%s`)%s\n", p.Name, p.Slug, desc)
	}
	return b.String()
}

// statusCountsMD iterates a Go map, so the row order is random on every call — exactly as
// upstream (a client must not rely on it).
func statusCountsMD(counts map[string]int, total int) string {
	var b strings.Builder
	b.WriteString("| Status | Count |\n")
	b.WriteString("|--------|-------|\n")
	for status, n := range counts {
		fmt.Fprintf(&b, "| %s | %d |\n", status, n)
	}
	fmt.Fprintf(&b, "| **Total** | **%d** |\n", total)
	return b.String()
}

// ---- _ui builders (restating sdk-go helpers/ui_builders.go) ----

func uiFeatures(fs []Feature) any {
	if fs == nil {
		return []*uiFeature(nil) // marshals as null
	}
	out := make([]uiFeature, len(fs))
	for i := range fs {
		out[i] = fs[i].ui()
	}
	return out
}

var featureColumns = []map[string]any{
	{"key": "id", "label": "ID", "type": "text"},
	{"key": "title", "label": "Title", "type": "text"},
	{"key": "status", "label": "Status", "type": "status"},
	{"key": "priority", "label": "Priority", "type": "priority"},
	{"key": "kind", "label": "Kind", "type": "badge"},
	{"key": "assignee", "label": "Assignee", "type": "text"},
}

func featureListUI(fs []Feature, p page, total int, actions ...map[string]any) map[string]any {
	ui := map[string]any{
		"view": "table", "entity_type": "feature", "data": uiFeatures(fs),
		"columns":    featureColumns,
		"pagination": map[string]any{"total": total, "limit": p.limit, "offset": p.offset},
	}
	if len(actions) > 0 {
		ui["actions"] = actions
	}
	return ui
}

func featureDetailUI(f *Feature, actions ...map[string]any) map[string]any {
	ui := map[string]any{"view": "detail_card", "entity_type": "feature", "data": f.ui()}
	if len(actions) > 0 {
		ui["actions"] = actions
	}
	return ui
}

func action(label, tool, kind string, params map[string]any) map[string]any {
	a := map[string]any{"label": label, "tool": tool, "params": params}
	if kind != "" {
		a["kind"] = kind
	}
	return a
}

var kanbanGroups = []map[string]any{
	{"key": "todo", "label": "Todo", "color": "#6B7280"},
	{"key": "in-progress", "label": "In Progress", "color": "#3B82F6"},
	{"key": "in-testing", "label": "In Testing", "color": "#F59E0B"},
	{"key": "in-docs", "label": "In Docs", "color": "#8B5CF6"},
	{"key": "in-review", "label": "In Review", "color": "#10B981"},
	{"key": "done", "label": "Done", "color": "#22C55E"},
	{"key": "needs-edits", "label": "Needs Edits", "color": "#EF4444"},
}

// ---- the tools ----

func (t *tools) call(name string, args map[string]any) toolResult {
	switch name {
	case "list_projects":
		return textResult(projectListMD(t.store.Projects()))
	case "get_project_status":
		return t.getProjectStatus(args)
	case "get_feature":
		return t.getFeature(args)
	case "list_features":
		return t.listFeatures(args)
	case "search_features":
		return t.searchFeatures(args)
	case "get_workflow_status":
		return t.getWorkflowStatus(args)
	case "get_progress":
		return t.getProgress(args)
	case "get_blocked_features":
		return t.getBlockedFeatures(args)
	case "get_review_queue":
		return t.getReviewQueue(args)
	}
	return errorResult("peer_unimplemented", fmt.Sprintf("upstream-peer does not implement tool %q", name))
}

func (t *tools) getFeature(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id", "feature_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid, fid := argString(args, "project_id"), argString(args, "feature_id")
	f, ok := t.store.Feature(pid, fid)
	if !ok {
		// What upstream reports when storage has no such file: the storage read comes back
		// empty and the metadata parse fails.
		return errorResult("not_found", fmt.Sprintf("parse feature %s/%s: no metadata", pid, fid))
	}
	md := featureMD(&f) + "\n---\n\n" + f.Body
	return t.richResult(md, featureDetailUI(&f,
		action("Update", "update_feature", "secondary", map[string]any{"project_id": pid, "feature_id": fid})))
}

func filterKind(fs []Feature, kind string) []Feature {
	var out []Feature
	for _, f := range fs {
		if kindOrDefault(f.Kind) == kind {
			out = append(out, f)
		}
	}
	return out
}

func (t *tools) listFeatures(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	status, kind := argString(args, "status"), argString(args, "kind")
	fs := t.store.Features(pid)
	if status != "" {
		var out []Feature
		for _, f := range fs {
			if f.Status == status {
				out = append(out, f)
			}
		}
		fs = out
	}
	if kind != "" {
		fs = filterKind(fs, kind)
	}
	if fs == nil {
		fs = []Feature{}
	}
	header := "Features"
	switch {
	case status != "" && kind != "":
		header = fmt.Sprintf("Features (%s, kind=%s)", status, kind)
	case status != "":
		header = fmt.Sprintf("Features (%s)", status)
	case kind != "":
		header = fmt.Sprintf("Features (kind=%s)", kind)
	}
	if t.flavor == flavorLegacy {
		return textResult(featureListMD(fs, header))
	}
	total := len(fs)
	p := parsePage(args)
	shown := paginate(fs, p)
	md := featureListMD(shown, header)
	md += fmt.Sprintf("\n*Showing %d-%d of %d total*\n", p.offset+1, p.offset+len(shown), total)
	return t.richResult(md, featureListUI(shown, p, total,
		action("Create Feature", "create_feature", "primary", map[string]any{"project_id": pid})))
}

func (t *tools) searchFeatures(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id", "query"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	query := strings.ToLower(argString(args, "query"))
	var matches []Feature
	for _, f := range t.store.Features(pid) {
		if strings.Contains(strings.ToLower(f.Title), query) || strings.Contains(strings.ToLower(f.Description), query) {
			matches = append(matches, f)
		}
	}
	kind := argString(args, "kind")
	if kind != "" {
		matches = filterKind(matches, kind)
	}
	if matches == nil {
		matches = []Feature{}
	}
	header := fmt.Sprintf("Search results for %q", query)
	if kind != "" {
		header = fmt.Sprintf("Search results for %q (kind=%s)", query, kind)
	}
	if t.flavor == flavorLegacy {
		return textResult(featureListMD(matches, header))
	}
	total := len(matches)
	p := parsePage(args)
	shown := paginate(matches, p)
	md := featureListMD(shown, header)
	md += fmt.Sprintf("\n*Showing %d-%d of %d total*\n", p.offset+1, p.offset+len(shown), total)
	return t.richResult(md, featureListUI(shown, p, total))
}

func statusCounts(fs []Feature) (map[string]int, int) {
	counts := map[string]int{}
	done := 0
	for _, f := range fs {
		counts[f.Status]++
		if f.Status == "done" {
			done++
		}
	}
	return counts, done
}

func (t *tools) getProjectStatus(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	p, ok := t.store.Project(pid)
	if !ok {
		return errorResult("storage_error", fmt.Sprintf("parse project %s: no metadata", pid))
	}
	fs := t.store.Features(pid)
	counts, done := statusCounts(fs)
	md := projectMD(&p) + "\n" + statusCountsMD(counts, len(fs))
	pct := 0.0
	if len(fs) > 0 {
		pct = float64(done) / float64(len(fs)) * 100
	}
	return t.richResult(md, map[string]any{"view": "detail_card", "entity_type": "project",
		"data": map[string]any{"project": p, "total": len(fs), "done": done, "percent_done": pct, "status_counts": counts}})
}

func (t *tools) getWorkflowStatus(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	fs := t.store.Features(pid)
	counts, _ := statusCounts(fs)
	md := fmt.Sprintf("## Workflow Status: %s\n\n", pid) + statusCountsMD(counts, len(fs))
	var data []Feature
	if len(fs) > 0 {
		data = fs // upstream's list is nil (→ null) when the project has no features
	}
	return t.richResult(md, map[string]any{"view": "kanban", "entity_type": "feature",
		"data": uiFeatures(data), "groups": kanbanGroups})
}

func (t *tools) getProgress(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	fs := t.store.Features(pid)
	counts, done := statusCounts(fs)
	pct := 0.0
	if len(fs) > 0 {
		pct = float64(done) / float64(len(fs)) * 100
	}
	md := fmt.Sprintf("## Progress: %s\n\n- **Total features:** %d\n- **Done:** %d\n- **Completion:** %.1f%%\n\n%s",
		pid, len(fs), done, pct, statusCountsMD(counts, len(fs)))
	return t.richResult(md, map[string]any{"view": "dashboard", "entity_type": "progress",
		"data": map[string]any{"total": len(fs), "done": done, "percent_done": pct, "status_counts": counts}})
}

func (t *tools) getBlockedFeatures(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	fs := t.store.Features(pid)
	status := map[string]string{}
	for _, f := range fs {
		status[f.ID] = f.Status
	}
	var b strings.Builder
	var blocked []Feature
	for _, f := range fs {
		var open []string
		for _, dep := range f.DependsOn {
			if s, ok := status[dep]; !ok || s != "done" {
				open = append(open, dep)
			}
		}
		if len(open) > 0 {
			fmt.Fprintf(&b, "- **%s** (%s) blocked by: %s\n", f.ID, f.Title, strings.Join(open, ", "))
			blocked = append(blocked, f)
		}
	}
	if len(blocked) == 0 {
		return textResult("## Blocked Features\n\nNo blocked features found.")
	}
	md := fmt.Sprintf("## Blocked Features (%d)\n\n%s", len(blocked), b.String())
	return t.richResult(md, featureListUI(blocked, page{len(blocked), 0}, len(blocked)))
}

func (t *tools) getReviewQueue(args map[string]any) toolResult {
	if err := validateRequired(args, "project_id"); err != nil {
		return errorResult("validation_error", err.Error())
	}
	pid := argString(args, "project_id")
	inReview := []Feature{}
	for _, f := range t.store.Features(pid) {
		if f.Status == "in-review" {
			inReview = append(inReview, f)
		}
	}
	return t.richResult(featureListMD(inReview, "Review Queue"),
		featureListUI(inReview, page{len(inReview), 0}, len(inReview)))
}

// ---- list_tools: definitions of the served tools (schemas restated from the plugin) ----

func schema(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		req := make([]any, len(required))
		for i, r := range required {
			req[i] = r
		}
		s["required"] = req
	}
	return s
}

func prop(typ, desc string) map[string]any { return map[string]any{"type": typ, "description": desc} }

func (t *tools) definitions() []toolDef {
	slug := prop("string", "Project slug")
	listProps := map[string]any{"project_id": slug, "status": prop("string", "Filter by status (optional)"),
		"kind": prop("string", "Filter by kind (optional)")}
	searchProps := map[string]any{"project_id": slug, "query": prop("string", "Search query"),
		"kind": prop("string", "Filter by kind (optional)")}
	if t.flavor != flavorLegacy {
		for _, m := range []map[string]any{listProps, searchProps} {
			m["limit"] = prop("number", "Max results (default 50, max 200)")
			m["offset"] = prop("number", "Skip first N results (default 0)")
		}
	}
	onlyProject := func() map[string]any { return schema(map[string]any{"project_id": slug}, "project_id") }
	return []toolDef{
		{"list_projects", "List all projects", schema(map[string]any{})},
		{"get_project_status", "Get project status with feature counts by status", onlyProject()},
		{"get_feature", "Get a feature's data and body", schema(map[string]any{"project_id": slug,
			"feature_id": prop("string", "Feature ID (e.g., FEAT-ABC)")}, "project_id", "feature_id")},
		{"list_features", "List all features in a project, optionally filtered by status", schema(listProps, "project_id")},
		{"search_features", "Search features by title and description", schema(searchProps, "project_id", "query")},
		{"get_workflow_status", "Get feature counts per workflow status", onlyProject()},
		{"get_progress", "Get project completion percentage and status breakdown", onlyProject()},
		{"get_blocked_features", "Get features blocked by unfinished dependencies", onlyProject()},
		{"get_review_queue", "Get features currently awaiting review", onlyProject()},
	}
}

type toolDef struct {
	name, description string
	schema            map[string]any
}
