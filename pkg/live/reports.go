package live

// Reports says whether Read can say which conversation a process of agent
// has: claude always (its sessions/<pid>.json), an agent whose process
// holds its conversation file open where open files can be read.
func (r Records) Reports(agent string) bool {
	return agent == "claude" || heldFiles[agent] != nil
}
