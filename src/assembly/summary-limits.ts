/** A server summary is a line, not a manual: instructions and action lines are cut here. */
export const MAX_SUMMARY_CHARS = 160;
