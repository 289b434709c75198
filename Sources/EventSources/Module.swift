// EventSources module
