import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

/** The largest id an INT column holds. */
const MAX_ID = 2_147_483_647;

/** A path id: a positive integer written in decimal (400 naming the parameter otherwise). */
@Injectable()
export class PositiveIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) throw new BadRequestException(`${metadata.data ?? 'id'} must be a positive integer`);
    return id;
  }
}
