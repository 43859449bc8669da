import { DECORATORS } from '@nestjs/swagger';
import { mysqlMetadataOnly } from '../entities';
import { AddSmsConfigDto } from './dto/add-sms-config.dto';
import { UpdateSmsConfigDto } from './dto/sms-config-lifecycle.dto';
import { SMS_CONFIG_REQUEST_COLUMNS, SmsConfigFields } from './sms-config-fields';
import { SEAL_CONTEXTS } from './sms-config-seal-context';

const documented = (dto: abstract new () => unknown): string[] =>
  (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[]).map((key) => key.replace(/^:/, ''));

describe('SmsConfigFields', () => {
  it('should store in a column every field add and PATCH take, but the prices and add’s clientId (the key’s client)', () => {
    const stored = SMS_CONFIG_REQUEST_COLUMNS.map(({ field }) => field).sort();
    expect(
      documented(UpdateSmsConfigDto)
        .filter((field) => field !== 'destinationPrices')
        .sort(),
    ).toEqual(stored);
    expect(
      documented(AddSmsConfigDto)
        .filter((field) => !['destinationPrices', 'clientId'].includes(field))
        .sort(),
    ).toEqual(stored);
  });

  it('should seal each sealed field for a column of its own', () => {
    const sealed = SMS_CONFIG_REQUEST_COLUMNS.filter((column) => column.sealed);
    expect(sealed.map(({ field, property }) => [field, property])).toEqual([
      ['password', 'passwordSealed'],
      ['apiKey', 'apiKeySealed'],
    ]);
    for (const { field } of sealed) expect(SEAL_CONTEXTS[field]).toBeDefined();
  });

  it('should show no sealed column or exact twin in an answer, and read the id as smsConfigId', async () => {
    const fields = new SmsConfigFields(await mysqlMetadataOnly());
    expect(fields.storedFieldsOf(['passwordSealed', 'apiKeySealed', 'balanceMicros', 'id', 'smsConfigId', 'notAColumn'])).toEqual([
      'smsConfigId',
    ]);
    expect(fields.columnsOf(['smsConfigId', 'balance'])).toEqual({ columns: ['id', 'balance'], twins: ['balanceMicros'] });
  });
});
