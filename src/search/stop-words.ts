/**
 * English stop words, compared before stemming. A classic list (function words only) so that
 * domain words such as "file", "get" or "search" stay searchable; corpus-frequent words are
 * handled by IDF, not by this list.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
  "aren", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
  "but", "by", "can", "could", "couldn", "did", "didn", "do", "does", "doesn", "doing", "don",
  "down", "during", "each", "few", "for", "from", "further", "had", "hadn", "has", "hasn",
  "have", "haven", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
  "how", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just", "ll", "me",
  "might", "more", "most", "must", "my", "myself", "no", "nor", "not", "now", "of", "off", "on",
  "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "re", "same",
  "shan", "she", "should", "shouldn", "so", "some", "such", "than", "that", "the", "their",
  "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through",
  "to", "too", "under", "until", "up", "ve", "very", "was", "wasn", "we", "were", "weren",
  "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "won",
  "would", "wouldn", "you", "your", "yours", "yourself", "yourselves", "also", "etc",
  "ie", "eg", "via", "upon", "let", "lets", "please", "thanks",
  "thank", "im", "ive", "youre", "dont", "cant", "wont",
  "really", "actually", "maybe", "perhaps", "something", "anything", "everything", "someone",
  "anyone", "everyone", "whether", "still", "already", "yet", "though", "although", "however",
  "therefore", "thus", "else", "ever", "quite", "rather", "almost",
  "whose", "whatever", "whichever", "whoever", "whomever", "whenever", "wherever",
]);
