import { ApiProblem } from '../api'

/** An error in words: the problem's title and detail, and each field's messages. */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null
  const problem =
    error instanceof ApiProblem
      ? error.problem
      : { title: 'Something went wrong.', detail: error instanceof Error ? error.message : String(error) }
  const fields = 'errors' in problem && problem.errors ? Object.entries(problem.errors) : []
  return (
    <div class="problem" role="alert">
      <p class="problem-title">{problem.title}</p>
      {problem.detail && <p>{problem.detail}</p>}
      {fields.length > 0 && (
        <ul>
          {fields.map(([field, messages]) => (
            <li key={field}>
              <strong>{field}</strong>: {messages.join('; ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
