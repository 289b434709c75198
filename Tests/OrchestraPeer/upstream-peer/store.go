package main

// The peer's in-memory truth: projects and features, as upstream's storage would hand them to
// tools.features. Loaded from --data FILE.json and changed through the control channel.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// Project mirrors upstream's types.ProjectData (plus the slug key used as identity).
type Project struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description,omitempty"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// Feature mirrors upstream's types.FeatureData plus the markdown body (which upstream keeps
// beside the metadata, not in it).
type Feature struct {
	ID          string   `json:"id"`
	ProjectID   string   `json:"project_id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Status      string   `json:"status"`
	Priority    string   `json:"priority"`
	Kind        string   `json:"kind,omitempty"`
	Assignee    string   `json:"assignee,omitempty"`
	Labels      []string `json:"labels,omitempty"`
	DependsOn   []string `json:"depends_on,omitempty"`
	Blocks      []string `json:"blocks,omitempty"`
	Estimate    string   `json:"estimate,omitempty"`
	Version     int64    `json:"version"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
	Body        string   `json:"body,omitempty"`
}

// uiFeature has exactly upstream's FeatureData JSON shape (no body): what `_ui.data` carries.
type uiFeature struct {
	ID          string   `json:"id"`
	ProjectID   string   `json:"project_id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Status      string   `json:"status"`
	Priority    string   `json:"priority"`
	Kind        string   `json:"kind,omitempty"`
	Assignee    string   `json:"assignee,omitempty"`
	Labels      []string `json:"labels,omitempty"`
	DependsOn   []string `json:"depends_on,omitempty"`
	Blocks      []string `json:"blocks,omitempty"`
	Estimate    string   `json:"estimate,omitempty"`
	Version     int64    `json:"version"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
}

func (f *Feature) ui() uiFeature {
	return uiFeature{f.ID, f.ProjectID, f.Title, f.Description, f.Status, f.Priority, f.Kind,
		f.Assignee, f.Labels, f.DependsOn, f.Blocks, f.Estimate, f.Version, f.CreatedAt, f.UpdatedAt}
}

// DataFile is the --data JSON document (and the `snapshot` control reply).
type DataFile struct {
	Projects []*Project `json:"projects"`
	Features []*Feature `json:"features"`
}

// Store holds the truth behind one mutex.
type Store struct {
	mu       sync.Mutex
	projects map[string]*Project            // slug -> project
	features map[string]map[string]*Feature // project slug -> id -> feature
}

func nowISO() string { return time.Now().UTC().Format(time.RFC3339) }

func newStore() *Store {
	return &Store{projects: map[string]*Project{}, features: map[string]map[string]*Feature{}}
}

func loadStore(path string) (*Store, error) {
	s := newStore()
	if path == "" {
		return s, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d DataFile
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, p := range d.Projects {
		if err := s.SetProject(p); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	for _, f := range d.Features {
		if err := s.SetFeature(f); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return s, nil
}

// SetProject creates or replaces a project; missing fields get upstream-like defaults.
func (s *Store) SetProject(p *Project) error {
	if p == nil || p.Slug == "" {
		return fmt.Errorf("project needs a slug")
	}
	if p.ID == "" {
		p.ID = p.Slug
	}
	if p.Name == "" {
		p.Name = p.Slug
	}
	now := nowISO()
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.projects[p.Slug]; ok && p.CreatedAt == "" {
		p.CreatedAt = old.CreatedAt
	}
	if p.CreatedAt == "" {
		p.CreatedAt = now
	}
	if p.UpdatedAt == "" {
		p.UpdatedAt = now
	}
	s.projects[p.Slug] = p
	return nil
}

// DeleteProject removes a project and its features.
func (s *Store) DeleteProject(slug string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.projects[slug]
	delete(s.projects, slug)
	delete(s.features, slug)
	return ok
}

// SetFeature creates or replaces a feature. Defaults (as upstream's create_feature writes them):
// status "todo", priority "P2", body "# {title}\n\n{description}\n", timestamps now
// (created_at kept from the replaced feature). kind stays empty unless given (legacy records).
func (s *Store) SetFeature(f *Feature) error {
	if f == nil || f.ID == "" || f.ProjectID == "" {
		return fmt.Errorf("feature needs id and project_id")
	}
	if f.Status == "" {
		f.Status = "todo"
	}
	if f.Priority == "" {
		f.Priority = "P2"
	}
	if f.Body == "" {
		f.Body = fmt.Sprintf("# %s\n\n%s\n", f.Title, f.Description)
	}
	now := nowISO()
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.features[f.ProjectID]
	if m == nil {
		m = map[string]*Feature{}
		s.features[f.ProjectID] = m
	}
	if old, ok := m[f.ID]; ok && f.CreatedAt == "" {
		f.CreatedAt = old.CreatedAt
	}
	if f.CreatedAt == "" {
		f.CreatedAt = now
	}
	if f.UpdatedAt == "" {
		f.UpdatedAt = now
	}
	m[f.ID] = f
	return nil
}

// MergeFeature applies the JSON object's keys onto an existing feature (or a new one), bumping
// updated_at unless the object sets it.
func (s *Store) MergeFeature(raw json.RawMessage) error {
	var probe struct {
		ID        string `json:"id"`
		ProjectID string `json:"project_id"`
		UpdatedAt string `json:"updated_at"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return err
	}
	s.mu.Lock()
	var base Feature
	if old := s.features[probe.ProjectID][probe.ID]; old != nil {
		base = *old
	}
	s.mu.Unlock()
	if err := json.Unmarshal(raw, &base); err != nil {
		return err
	}
	if probe.UpdatedAt == "" {
		base.UpdatedAt = ""
	}
	return s.SetFeature(&base)
}

// DeleteFeature removes one feature.
func (s *Store) DeleteFeature(project, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.features[project]
	_, ok := m[id]
	delete(m, id)
	return ok
}

// Projects returns copies sorted as upstream's markdown storage walk yields them (by slug).
func (s *Store) Projects() []Project {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Project, 0, len(s.projects))
	for _, p := range s.projects {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out
}

// Project returns a copy of one project.
func (s *Store) Project(slug string) (Project, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.projects[slug]
	if !ok {
		return Project{}, false
	}
	return *p, true
}

// Features returns copies of a project's features in the order upstream's storage walk lists
// the files `<id>.md` (byte order of the file names). Unknown project: none (upstream's walk of
// a missing directory yields nothing; no error).
func (s *Store) Features(project string) []Feature {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.features[project]
	out := make([]Feature, 0, len(m))
	for _, f := range m {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID+".md" < out[j].ID+".md" })
	return out
}

// Feature returns a copy of one feature.
func (s *Store) Feature(project, id string) (Feature, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.features[project][id]
	if !ok {
		return Feature{}, false
	}
	return *f, true
}

// Snapshot returns the whole truth in the --data shape.
func (s *Store) Snapshot() DataFile {
	d := DataFile{Projects: []*Project{}, Features: []*Feature{}}
	for _, p := range s.Projects() {
		p := p
		d.Projects = append(d.Projects, &p)
	}
	s.mu.Lock()
	slugs := make([]string, 0, len(s.features))
	for slug := range s.features {
		slugs = append(slugs, slug)
	}
	s.mu.Unlock()
	sort.Strings(slugs)
	for _, slug := range slugs {
		for _, f := range s.Features(slug) {
			f := f
			d.Features = append(d.Features, &f)
		}
	}
	return d
}
