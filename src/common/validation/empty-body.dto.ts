/** An endpoint that takes no body accepts none, an empty one or `{}`; any field is refused. */
export class EmptyBodyDto {}
