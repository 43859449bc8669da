export class EmptyBodyDto {}
